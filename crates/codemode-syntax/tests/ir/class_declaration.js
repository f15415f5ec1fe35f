const a = 1;
class Order {
  constructor(id) { this.id = id; }
}
