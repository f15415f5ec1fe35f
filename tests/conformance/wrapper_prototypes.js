// Number.prototype and Boolean.prototype are wrappers of 0 and false.
return [
  Number.prototype.toString(), Number.prototype.valueOf(), Number.prototype.toFixed(1),
  Boolean.prototype.toString(), Boolean.prototype.valueOf(),
  Object.prototype.toString.call(Number.prototype), Object.prototype.toString.call(Boolean.prototype),
  typeof Number.prototype, (5).toString(), true.toString(),
];
