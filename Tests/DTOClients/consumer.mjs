// Sends requests made with the DTOs /types/mjs or /types/js generated, as a program would
// (Tests/MockStackTests/DTOClientTests.swift), through `@servicestack/client`.
//
// usage: node consumer.mjs mjs|js APP DTOS_FILE BASE_URL [APP DTOS_FILE BASE_URL ...]
// For each app: loads DTOS_FILE (`import` for an ES module, `require` for CommonJS), sends the
// app's requests and prints what came back as one JSON line, which the Swift test compares
// exactly. One process for every app: each process a test starts costs time.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { JsonServiceClient } from "@servicestack/client";

const calls = {
    async test(dtos, client) {
        const hello = await client.get(new dtos.Hello({ name: "World" }));
        const posted = await client.post(new dtos.Hello({ name: "JavaScript" }));
        return { get: hello.result, post: posted.result, type: hello.constructor.name };
    },
    async techstacks(dtos, client) {
        const found = await client.api(new dtos.GetTechnology({ slug: "servicestack" }));
        const query = await client.api(new dtos.FindTechnologies({ ids: [1] }));
        return {
            found: query.results.map(technology => technology.name),
            method: new dtos.FindTechnologies().getMethod(),
            technology: found.technology.name,
            server: found.technology.tier === dtos.TechnologyTier.Server,
            tier: found.technology.tier,
            type: query.constructor.name,
        };
    },
    async ai(dtos, client) {
        client.bearerToken = "ak-mockstack";
        const message = new dtos.OpenAiMessage({ role: "user", content: "What is the capital of France?" });
        const answer = await client.post(new dtos.OpenAiChatCompletion({ model: "llama3.1:8b", messages: [message] }));
        return { content: answer.choices[0].message.content, type: answer.constructor.name };
    },
};

const [kind, ...rest] = process.argv.slice(2);
const require = createRequire(import.meta.url);
for (let index = 0; index < rest.length; index += 3) {
    const [app, file, baseUrl] = rest.slice(index, index + 3);
    const dtos = kind === "js" ? require(file) : await import(pathToFileURL(file).href);
    console.log(JSON.stringify(await calls[app](dtos, new JsonServiceClient(baseUrl))));
}
