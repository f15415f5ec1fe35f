const t = <div>hello</div>;
