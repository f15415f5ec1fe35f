async function main() {
  return 1;
}
