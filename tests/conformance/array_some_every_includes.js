const nums = [3, 7, 11, NaN];
return {
  some: nums.some(n => n > 10),
  someNone: nums.some(n => n > 100),
  every: [2, 4, 6].every(n => n % 2 === 0),
  everyFalse: nums.every(n => n > 5),
  everyEmpty: [].every(() => false),
  includes: nums.includes(7),
  includesNaN: nums.includes(NaN),
  indexOf: nums.indexOf(11),
  indexOfNaN: nums.indexOf(NaN),
  indexOfMissing: nums.indexOf(99),
  stringIncludes: ["a", "b"].includes("b"),
};
