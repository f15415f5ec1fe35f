// Template literals joined in one step (Concat): conversion order, every primitive's text,
// a symbol's TypeError before later substitutions run, nesting, and more than 64 pieces.
const log = [];
const o = { toString() { log.push("o"); return "O"; } };
const p = { valueOf() { log.push("p-valueOf"); return 1; }, toString() { log.push("p"); return "P"; } };
let i = 0;
const r = [];
r.push(`a${o}b${(log.push("mid"), p)}c${-0}${NaN}${1e21}${undefined}${null}${true}${10n}${1.5}`);
r.push(`${1}${2}`);
r.push(`${"x"}`);
r.push(`${i++}${i++}${i}`);
r.push(`x${`y${`z${i}`}`}`);
try { r.push(`a${Symbol("s")}${log.push("after-symbol")}`); } catch (e) { r.push(e.constructor.name); }
r.push(`${[1, 2]}|${{}}|${[]}`);
const long = `${0}${1}${2}${3}${4}${5}${6}${7}${8}${9}${10}${11}${12}${13}${14}${15}${16}${17}${18}${19}${20}${21}${22}${23}${24}${25}${26}${27}${28}${29}${30}${31}${32}${33}${34}${35}${36}${37}${38}${39}${40}${41}${42}${43}${44}${45}${46}${47}${48}${49}${50}${51}${52}${53}${54}${55}${56}${57}${58}${59}${60}${61}${62}${63}${64}${65}${66}${67}${68}${69}`;
r.push(long);
r.push(`é${"ü"}${1}`.length);
return { r, log };
