let u;
const n = null;
return {
  u,
  n,
  uIsUndefined: u === undefined,
  looseEq: n == undefined,
  strictEq: n === undefined,
  typeofU: typeof u,
  typeofN: typeof n,
  arr: [undefined, null],
  plusNull: 1 + null,
  plusUndefinedIsNaN: Number.isNaN(1 + undefined),
};
