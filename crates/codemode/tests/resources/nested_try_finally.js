// Nested try/finally blocks copy their finally at every exit: the module's code budget bounds compilation.
// expect: error UnsupportedSyntax program too large
// timeout-ms: 5000
let x=0;
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
try { x++ } finally {
x++;}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
return x;
