package mappointer

// Batch is a named struct the JSON pointers walk into.
type Batch struct {
	Users []User `json:"users"`
	Teams []Team `json:"teams"`
}

// User is the item of greet and notify.
type User struct {
	Name string `json:"name"`
}

// Team has a lead, which is not a list: as an item it is the only one.
type Team struct {
	Lead    User `json:"lead"`
	Members []string
}
