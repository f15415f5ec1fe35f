const big = 10n ** 20n;
const keys = { 1n: 0x1Fn, 0b11n: 1_000n };
