const s = "  Mixed Case Text \n";
return {
  upper: s.toUpperCase(),
  lower: s.toLowerCase(),
  trim: s.trim(),
  trimmedLength: s.trim().length,
  chained: s.trim().toLowerCase().split(" ").join("-"),
};
