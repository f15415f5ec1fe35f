const s = "Hello, Wörld! 👋";
return [s.length, s.toUpperCase(), s.slice(7, 12), s.indexOf("W"), s.split(", "), s.replace(/o/g, "0"), s.at(-1) === "\udc4b", [...s].length, s.charCodeAt(8), s.codePointAt(14), "a-b-c".replaceAll("-", "+"), "  x ".trim() + "|", "abc".padEnd(6, "12"), "x".repeat(3), "CSV,line,here".split(",", 2), "a1b2c3".match(/\d/g), /(\w+)@(\w+)\.com/.exec("me: joe@site.com").slice(1), "2024-01-15".split("-").map(Number), `multi
line`.split("\n").length, "abc".localeCompare("abd"), String(null) + String(undefined) + String(123.0), "%".concat(1, 2)];
