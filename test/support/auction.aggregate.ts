import { Aggregate, AggregateId, Apply, CommandHandler, FailedPreconditionError, MergeHandler, MergeStrategy, proceed, reject, type MergeDecision } from '@nest-es/core';
import { IsInt, IsPositive, IsString } from 'class-validator';

/**
 * AGGREGATE_HANDLES, the PlaceBid example of docs/merge-strategies.md: on a mismatch the auction
 * itself decides from the state the bidder saw and the state now.
 */
abstract class AuctionCommand {
  @AggregateId() @IsString() auctionId!: string;
}

export class OpenAuction extends AuctionCommand {}
export class PlaceBid extends AuctionCommand {
  @IsInt() @IsPositive() amount!: number;
}
export class CloseAuction extends AuctionCommand {}

export class AuctionOpened {}
export class BidPlaced {
  constructor(readonly amount: number) {}
}
export class AuctionClosed {}

export interface AuctionState {
  open: boolean;
  highBid: number;
}

@Aggregate('auction', { mergeStrategy: MergeStrategy.AGGREGATE_HANDLES })
export class AuctionAggregate {
  initialState(): AuctionState {
    return { open: false, highBid: 0 };
  }

  @CommandHandler(OpenAuction, { emits: [AuctionOpened] })
  open(): AuctionOpened {
    return new AuctionOpened();
  }

  @CommandHandler(PlaceBid, { emits: [BidPlaced] })
  bid(command: PlaceBid, state: AuctionState): BidPlaced {
    if (!state.open) throw new FailedPreconditionError('the auction is not open');
    if (command.amount <= state.highBid) throw new FailedPreconditionError(`bid ${command.amount} does not beat ${state.highBid}`);
    return new BidPlaced(command.amount);
  }

  @CommandHandler(CloseAuction, { emits: [AuctionClosed] })
  close(): AuctionClosed {
    return new AuctionClosed();
  }

  @MergeHandler()
  merge(command: object, expected: AuctionState, actual: AuctionState): MergeDecision {
    if (actual.open !== expected.open) return reject(`the auction was ${actual.open ? 'opened' : 'closed'} meanwhile`);
    if (!(command instanceof PlaceBid)) return reject(`${command.constructor.name} does not merge`);
    if (command.amount <= actual.highBid) return reject(`outbid meanwhile: the high bid is now ${actual.highBid}`);
    return proceed(new BidPlaced(command.amount));
  }

  @Apply(AuctionOpened)
  onOpened(state: AuctionState): void {
    state.open = true;
  }

  @Apply(BidPlaced)
  onBid(state: AuctionState, event: BidPlaced): void {
    state.highBid = event.amount;
  }

  @Apply(AuctionClosed)
  onClosed(state: AuctionState): void {
    state.open = false;
  }
}
