/** Outbound events (part 6): the envelope every webhook receives. */
export interface ServiceEvent {
  event: string;
  /** Dispatch time. */
  timestamp: string;
  project_id: string;
  is_test?: boolean;
  environment?: string;
  data: Record<string, unknown>;
}

/** Where events go: the events queue, from which webhooks are fanned out to the project's URLs. */
export interface EventPublisher {
  publish(event: ServiceEvent): Promise<void>;
}
