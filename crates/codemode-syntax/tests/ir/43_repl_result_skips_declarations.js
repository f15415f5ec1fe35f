const r = await tools.x({});
r.value;
var later;
declare const injected: number;
declare class Shape {}
function helper() {}
type T = number;
