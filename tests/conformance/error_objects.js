const e = new Error("plain");
const t = new TypeError("typed");
const r = new RangeError("ranged");
const noMsg = new Error();
return {
  name: e.name,
  message: e.message,
  str: String(e),
  typeName: t.name,
  typeStr: `${t}`,
  rangeIsError: r instanceof Error,
  rangeIsType: r instanceof TypeError,
  noMsg: noMsg.message,
  noMsgStr: String(noMsg),
  returned: e,
};
