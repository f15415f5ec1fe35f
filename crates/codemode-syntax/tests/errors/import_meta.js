const x = import.meta.url;
