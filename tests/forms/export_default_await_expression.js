export default await tools.orders.lookup({ id: "ed-1" });
