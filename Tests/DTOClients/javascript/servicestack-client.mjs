// A stand-in for the part of npm's @servicestack/client that a program sends generated DTOs
// with (Tests/MockStackTests/DTOClientTests.swift resolves `@servicestack/client` to this file):
// a request names its operation (`getTypeName`) and method (`getMethod`), goes to
// `/api/{operation}` (a GET's members in the query string, any other's as a JSON body), and the
// answer fills the object its `createResponse` makes, as the client library does.
export class JsonServiceClient {
    constructor(baseUrl) {
        this.baseUrl = baseUrl.replace(/\/$/, "");
        this.bearerToken = null;
    }

    get(request) { return this.send("GET", request); }
    post(request) { return this.send("POST", request); }
    api(request) { return this.send(request.getMethod ? request.getMethod() : "POST", request); }

    async send(method, request) {
        const name = request.getTypeName();
        const headers = { Accept: "application/json" };
        if (this.bearerToken) headers.Authorization = `Bearer ${this.bearerToken}`;
        let url = `${this.baseUrl}/api/${name}`;
        const init = { method, headers };
        if (method === "GET" || method === "DELETE") {
            const query = Object.entries(request).filter(([, value]) => value != null)
                .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(Array.isArray(value) ? value.join(",") : value)}`);
            if (query.length > 0) url += "?" + query.join("&");
        } else {
            headers["Content-Type"] = "application/json";
            init.body = JSON.stringify(request);
        }
        const response = await fetch(url, init);
        if (!response.ok) throw new Error(`${method} ${name}: ${response.status} ${await response.text()}`);
        return Object.assign(request.createResponse(), await response.json());
    }
}
