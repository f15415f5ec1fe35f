return {
  numStr: 1 == "1",
  zeroEmpty: 0 == "",
  zeroStrZero: 0 == "0",
  emptyStrZero: "" == "0",
  nullUndef: null == undefined,
  nullZero: null == 0,
  undefFalse: undefined == false,
  trueOne: true == 1,
  trueTwo: true == 2,
  falseStrZero: false == "0",
  nanNan: NaN == NaN,
  arrStr: [1, 2] == "1,2",
  objSame: (() => {
    const o = {};
    return o == o;
  })(),
  objDiff: {} == {},
  strict: 1 === 1.0,
  strictStr: "a" === "a",
};
