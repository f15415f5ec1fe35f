with (Math) {
  max(1, 2);
}
