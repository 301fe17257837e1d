// Uses the declarations /types/typescript.d generated for the three apps as a program would, so
// that tsc checks them and their use (Tests/MockStackTests/DTOClientTests.swift): `test`'s as
// global declarations, techstacks' and ai's each in its `GlobalNamespace`.
/// <reference path="./test.dtos.d.ts" />
/// <reference path="./techstacks.dtos.d.ts" />
/// <reference path="./ai.dtos.d.ts" />

const hello: Hello = { name: "World" };
const marker: IReturn<HelloResponse> = hello;
const reply: HelloResponse = { result: "Hello, World!" };
const living: LivingStatus = "Alive";

const search: TechStacks.FindTechnologies = { ids: [1], take: 3 };
const found: TechStacks.QueryResponse<TechStacks.TechnologyView> = { results: [{ name: "ServiceStack", tier: "Server" }] };
const names: string[] = (found.results ?? []).map(technology => technology.name ?? "");

const chat: AI.OpenAiChatCompletion = { model: "llama3.1:8b", messages: [{ role: "user", content: "Hi" }] };
const answer: AI.OpenAiChatResponse = { choices: [] };

export const used = [marker, reply, living, search, names, chat, answer];
