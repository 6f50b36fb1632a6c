/** The parts of an OpenAPI 3 document the framework adds to (what `@nestjs/swagger` builds). */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; [section: string]: unknown };
  tags?: { name: string; description?: string }[];
  [field: string]: unknown;
}

export type JsonSchema = Record<string, unknown>;
