const x = await tools.compute({});
x * 2;
function trailing() {}
interface Ignored {}
;
