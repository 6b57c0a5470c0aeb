import { createMachine } from 'xstate';
export default createMachine({
  "id": "wait",
  "initial": "polling",
  "on": {
    "CANCEL": {
      "target": ".closed",
      "actions": {
        "type": "failCancelled"
      }
    }
  },
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
              "type": "isDoneState"
            },
            "target": "closed",
            "actions": {
              "type": "succeed"
            }
          },
          {
            "target": "sleeping",
            "actions": {
              "type": "recordState"
            }
          }
        ],
        "onError": {
          "target": "closed",
          "actions": {
            "type": "failWithError"
          }
        }
      },
      "after": {
        "POLL_DEADLINE": [
          {
            "guard": {
              "type": "hasState"
            },
            "target": "closed",
            "actions": "timeOutWithState"
          },
          {
            "target": "closed",
            "actions": "failWithWaitTimeout"
          }
        ]
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
            "actions": "timeOutWithState"
          },
          {
            "target": "polling"
          }
        ]
      }
    },
    "closed": {
      "type": "final",
      "entry": "teardown"
    }
  }
});
