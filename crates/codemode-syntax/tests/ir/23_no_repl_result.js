let total = 0;
if (total === 0) {
  total;
}
