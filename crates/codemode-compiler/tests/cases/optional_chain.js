const o = { a: { b: () => 42 } };
const missing = null;
return [o?.a?.b(), missing?.a.b.c, o.a.nope?.(), missing ?? "default", o.x ||= 3, o];
