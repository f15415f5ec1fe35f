console.log("before");
const config = undefined;
const value = config.setting;
console.log("after");
return value;
