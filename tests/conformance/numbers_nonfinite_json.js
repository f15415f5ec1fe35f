const nan = 0 / 0;
const inf = 1 / 0;
console.log(String(nan), String(inf), String(-inf));
return { nan, inf, negInf: -inf, list: [nan, inf, 1], isNan: nan !== nan };
