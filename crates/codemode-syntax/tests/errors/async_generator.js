const g = async function* () {};
