const values = [
  0, 1.5, -2, 1e21, 0x10, 1_000, .5,
  "double", 'single \n escaped', `plain template`,
  true, false, null, undefined, NaN, Infinity,
  /ab+c/gi, /[/]\//,
];
const holes = [1, , 3, ...values, ,];
const tagless = `a ${values.length} b ${holes[0]}${""} c`;
