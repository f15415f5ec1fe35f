const results = [];
try { null.x; } catch (e) { results.push(e.constructor === TypeError, e.name); }
try { undefinedVar; } catch (e) { results.push(e.name, e.message); }
try { (void 0)(); } catch (e) { results.push(e.name); }
try { throw { code: 42 }; } catch ({ code }) { results.push(code); }
try { const c = 1; c = 2; } catch (e) { results.push(e.message); }
try { JSON.parse("{bad"); } catch (e) { results.push(e.name); }
try { new Array(-1); } catch (e) { results.push(e.name); }
const e = new Error("msg", { cause: "why" });
results.push(String(e), e.cause, e instanceof Error, Object.prototype.toString.call(e));
class_like: { results.push(typeof Error); }
return results;
