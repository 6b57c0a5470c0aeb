import { createMachine } from 'xstate';
export default createMachine({
  "id": "retry",
  "initial": "attempt",
  "on": {
    "CANCEL": {
      "target": ".closed",
      "actions": {
        "type": "failCancelled"
      }
    }
  },
  "states": {
    "attempt": {
      "invoke": {
        "id": "attempt",
        "src": "attempt"
      },
      "initial": "running",
      "states": {
        "running": {
          "on": {
            "ATTEMPT_SUCCEEDED": {
              "target": "#retry.closed",
              "actions": {
                "type": "succeed"
              }
            },
            "ATTEMPT_FAILED": [
              {
                "guard": {
                  "type": "mayRetry"
                },
                "target": "#retry.backingOff",
                "actions": {
                  "type": "scheduleRetry"
                }
              },
              {
                "target": "#retry.closed",
                "actions": {
                  "type": "failWithError"
                }
              }
            ],
            "CANCEL": {
              "target": "stopping",
              "actions": [
                {
                  "type": "failCancelled"
                },
                "stopAttempt"
              ]
            },
            "ATTEMPT_EXTENDED": {
              "guard": {
                "type": "extendsDeadline"
              },
              "target": "running",
              "reenter": true,
              "actions": {
                "type": "extendDeadline"
              }
            }
          },
          "after": {
            "OPERATION_DEADLINE": {
              "target": "stopping",
              "actions": [
                {
                  "type": "failTimeout"
                },
                "stopAttempt"
              ]
            }
          }
        },
        "stopping": {
          "on": {
            "ATTEMPT_SUCCEEDED": {
              "target": "#retry.closed"
            },
            "ATTEMPT_FAILED": {
              "target": "#retry.closed"
            },
            "CANCEL": {
              "target": "#retry.closed"
            }
          },
          "after": {
            "ATTEMPT_STOP_DEADLINE": {
              "target": "#retry.closed"
            }
          }
        }
      }
    },
    "backingOff": {
      "after": {
        "RETRY_DELAY": {
          "target": "attempt",
          "actions": "nextAttempt"
        }
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});
