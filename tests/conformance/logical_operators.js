const calls = [];
const t = v => {
  calls.push(v);
  return v;
};
const and = t(0) && t("never");
const or = t("") || t("fallback");
const chain = t(1) && t(2) && t(3);
const orChain = t(null) || t(undefined) || t(0);
return { and, or, chain, orChain, calls, not: !t(""), mixed: (t(false) || t("x")) && t("y") };
