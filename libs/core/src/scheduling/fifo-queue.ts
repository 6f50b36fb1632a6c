interface QueueNode<T> {
  readonly value: T;
  next?: QueueNode<T>;
}

/** Linked FIFO: O(1) shift even for long backlogs, where Array#shift copies. */
export class FifoQueue<T> {
  private head?: QueueNode<T>;
  private tail?: QueueNode<T>;
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(value: T): void {
    const node: QueueNode<T> = { value };
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.count++;
  }

  shift(): T | undefined {
    const node = this.head;
    if (!node) return undefined;
    this.head = node.next;
    if (!this.head) this.tail = undefined;
    this.count--;
    return node.value;
  }

  /** Empties the queue and returns its items in FIFO order. */
  takeAll(): T[] {
    const items: T[] = [];
    for (let node = this.head; node; node = node.next) items.push(node.value);
    this.head = this.tail = undefined;
    this.count = 0;
    return items;
  }
}
