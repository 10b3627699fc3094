declare module "lucene" {
  const lucene: { parse(query: string): unknown; toString(ast: unknown): string };
  export default lucene;
}
