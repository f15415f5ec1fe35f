// The order the user asked about.
return tools.orders.lookup({ id: "42" });
