const topThis = this;
const topArrow = () => this;
function regular() {
  return this.value + arguments.length;
}
function withArrow() {
  const arrow = () => this.value + arguments[0];
  const deeper = () => () => this;
  return arrow() + deeper()();
}
function shadowed(arguments) {
  return arguments;
}
const obj = {
  value: 1,
  method() {
    return [1].map(() => this.value);
  },
};
typeof arguments;
