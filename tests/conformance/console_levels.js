console.log("log");
console.warn("careful");
console.error("bad", { code: 2 });
console.debug("details", [1]);
console.info("fyi");
return null;
