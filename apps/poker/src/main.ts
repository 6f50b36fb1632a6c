import { ErrorCode } from "#event-sourcing"; console.log(ErrorCode.NOT_FOUND);
