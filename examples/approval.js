// A refund that needs a person's approval. `demo.approve` is a durable tool that suspends the
// run until someone decides:
//   codemode run examples/approval.js --state-out run.state      (prints the pending call's key)
//   codemode resume run.state --outcome '<key>={"ok":true,"value":{"approved":true}}'
const order = await tools.orders.lookup({ id: "A-1001" });
const decision = await tools.demo.approve({ action: `refund ${order.total} to ${order.customer}` });
if (!decision.approved) return { order: order.id, refunded: false };
return { order: order.id, refunded: true, amount: order.total };
