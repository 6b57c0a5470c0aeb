import { createMachine } from 'xstate';
export default createMachine({
  "id": "wait",
  "initial": "polling",
  "states": {
    "polling": {
      "meta": {
        "operation": "poll"
      },
      "invoke": {
        "id": "poll",
        "src": "poll",
        "onDone": [
          {
            "guard": {
              "type": "isDoneSnapshot"
            },
            "target": "closed",
            "actions": {
              "type": "completeWithSnapshot"
            }
          },
          {
            "target": "sleeping",
            "actions": {
              "type": "recordSnapshot"
            }
          }
        ],
        "onError": {
          "target": "closed",
          "actions": {
            "type": "failWithPollError"
          }
        }
      },
      "after": {
        "POLL_DEADLINE": [
          {
            "guard": {
              "type": "hasSnapshot"
            },
            "target": "closed",
            "actions": "timeOutWithSnapshot"
          },
          {
            "target": "closed",
            "actions": "failWithWaitTimeout"
          }
        ]
      },
      "on": {
        "CANCEL": {
          "target": "closed",
          "actions": "cancelWithReason"
        }
      }
    },
    "sleeping": {
      "meta": {
        "operation": "sleep"
      },
      "after": {
        "BACKOFF_SLEEP": [
          {
            "guard": {
              "type": "isLastSleep"
            },
            "target": "closed",
            "actions": "timeOutWithSnapshot"
          },
          {
            "target": "polling"
          }
        ]
      },
      "on": {
        "CANCEL": {
          "target": "closed",
          "actions": "cancelWithReason"
        }
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});
