const x = [1, 2, 3];
x.push(4);
console.log(`length ${x.length}`);
return;
