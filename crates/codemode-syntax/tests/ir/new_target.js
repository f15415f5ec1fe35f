function F() {
  if (!new.target) throw new Error();
}
