console.warn("about to throw a string");
throw "plain string thrown";
