interface Order { id: string; total?: number }
type Id = string | number;
declare const injected: { name: string };
declare function declared(x: number): void;
enum_like: { }
function typed<T extends object>(value: T, id?: Id): T & { id: Id } {
  return { ...value, id: id! } as T & { id: Id };
}
function overloaded(x: string): string;
function overloaded(x: number): number;
function overloaded(x: any): any { return x; }
const order = <Order>{ id: "1" };
const total = (order.total as number) ?? 0;
const checked = { id: "2" } satisfies Order;
const list = new Array<number>(3);
const result = typed<{ a: number }>({ a: 1 }, 5);
const frozen = [1, 2] as const;
let definite!: string;
const arrow = <U,>(u: U): U => u;
const fn = function (this: Window, a: number): void {};
abstract: { }
result.id + total + checked.id + injected.name + list.length + frozen[0] + arrow(1);
