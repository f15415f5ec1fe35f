const account = {
  _balance: 0,
  get balance() { return this._balance; },
  set balance(value) { this._balance = value; },
  ["get" + "ter"]: 1,
  get [Symbol.toStringTag]() { return "Account"; },
};
account.balance = 10;
account.balance;
