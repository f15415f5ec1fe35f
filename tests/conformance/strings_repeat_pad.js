return {
  repeat: "ab".repeat(3),
  repeatZero: "x".repeat(0),
  padStart: "7".padStart(3, "0"),
  padStartDefault: "abc".padStart(6),
  padStartLong: "5".padStart(6, "xy"),
  noPad: "abcdef".padStart(3, "0"),
  padEnd: "ab".padEnd(5, "."),
};
