// Uses the DTOs /types/typescript generated for the three apps as a client program would, so
// that tsc checks the generated declarations and their use (Tests/MockStackTests/DTOClientTests.swift).
import { Hello, HelloResponse } from "./test.dtos";
import { FindTechnologies, GetTechnology, GetTechnologyResponse, QueryResponse, TechnologyView } from "./techstacks.dtos";
import { OpenAiChatCompletion, OpenAiChatResponse, OpenAiMessage } from "./ai.dtos";

const hello: HelloResponse = new Hello({ name: "World" }).createResponse();
const greeting: string = hello.result;

const search = new FindTechnologies({ ids: [1], take: 3 });
const found: QueryResponse<TechnologyView> = search.createResponse();
const names: string[] = found.results.map(technology => technology.name);

const technology = new GetTechnology({ slug: "servicestack" });
const detail: GetTechnologyResponse = technology.createResponse();
const method: string = technology.getMethod();

const chat = new OpenAiChatCompletion({ model: "llama3.1:8b", messages: [new OpenAiMessage({ role: "user", content: "Hi" })] });
const answer: OpenAiChatResponse = chat.createResponse();

export const used = [greeting, names, detail, method, answer, chat.getTypeName()];
