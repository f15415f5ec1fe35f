const o = {
  m() { return super.m(); },
};
