const c = 1;
c = 2;
c += await tools.x({});
c &&= 3;
c ??= 4;
c++;
--c;
[c] = [5];
({ c } = { c: 6 });
for (c of [1]) {}
function later() { c = 7; }
const f = function named() { named = 1; };
