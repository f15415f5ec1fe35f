() => {
  const words = "the quick brown fox jumps over the lazy dog".split(" ");
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
  return { words: words.length, longest };
}
