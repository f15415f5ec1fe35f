function tag(strings, ...values) {
  return { strings: [...strings], raw: strings.raw, values, n: strings.length };
}
const who = "world";
const obj = {
  prefix: ">",
  fmt(strings, ...values) {
    return this.prefix + strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]).toUpperCase() : ""), "");
  },
};
const sql = (strings, ...values) => ({ text: strings.reduce((a, s, i) => a + "$" + i + s), values });
return {
  basic: tag`hello ${who}!`,
  escapes: tag`a\nb${1}\u0041`,
  method: obj.fmt`x ${"y"} z ${1 + 1}`,
  raw: String.raw`C:\temp\${who}\n`,
  rawOnly: String.raw`\u00e9`,
  sql: sql`SELECT * FROM t WHERE a = ${1} AND b = ${"x"}`,
  empty: tag``,
};
