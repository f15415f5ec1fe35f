// RegExp.prototype.source escapes '/' outside classes and line terminators, escaped or not (EscapeRegExpPattern).
return [new RegExp("a\\\nb").source, new RegExp("[/]/").source, new RegExp("\u2028").source, /\//.source];
