function f() { try { return 1; } finally { return 2; } }
function g() { for (let i = 0; i < 3; i++) { try { if (i === 1) continue; if (i === 2) break; } finally { log.push("f" + i); } } return log; }
const log = [];
function h() { try { throw new Error("x"); } catch (e) { return "caught " + e.message; } finally { log.push("h"); } }
return [f(), g(), h(), log];
