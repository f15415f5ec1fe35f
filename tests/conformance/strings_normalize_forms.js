// All four forms, beyond Latin: compatibility forms, Hangul, CJK compatibility ideographs, ordering of marks.
const samples = ["ﬁ", "①②", "ｶﾀｶﾅ", "한국어", "\u1100\u1161\u11A8", "\uFB2C", "\u2126", "x\u0323\u0307", "x\u0307\u0323", "\uFDFA", "Å", "\u212B", "𝐀"];
return samples.map(s => ["NFC", "NFD", "NFKC", "NFKD"].map(f => Array.from(s.normalize(f), c => c.codePointAt(0).toString(16)).join(" ")));
