const z = -0;
return {
  value: z,
  str: String(z),
  isNegative: 1 / z === -Infinity,
  equalsZero: z === 0,
  fromMath: Math.round(-0.4),
  product: 0 * -1,
};
