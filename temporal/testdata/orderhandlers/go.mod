module example.com/orderhandlers

go 1.26.0
