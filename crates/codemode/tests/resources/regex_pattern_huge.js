// A pattern is refused before it is compiled when compiling it could take more than the memory left: "x".repeat(1 << 24).match("x".repeat(1 << 24)) compiled a 16 MiB pattern in 1.6 GiB and 9 s (issue 36's sweep). A pattern that fits still compiles and matches.
// expect: value ["RangeError", "RangeError", true]
// memory-limit: 64MiB
// timeout-ms: 2000
const big = "x".repeat(1 << 24);
const out = [];
try { big.match(big); out.push("matched"); } catch (e) { out.push(e.name); }
try { new RegExp(big, "i"); out.push("compiled"); } catch (e) { out.push(e.name); }
const fits = "y".repeat(1 << 16);
out.push(new RegExp(fits).test("a" + fits));
return out;
